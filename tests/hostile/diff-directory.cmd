diff REF tests/hostile
