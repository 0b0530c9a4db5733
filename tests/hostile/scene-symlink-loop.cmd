validate SETUP/loop.json
