validate tests/hostile/no-such-scene.json
