render @ -o OUT --frames 0:1000000000
