preview @ --port 0
