validate tests/hostile
