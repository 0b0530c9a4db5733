info @ --json
