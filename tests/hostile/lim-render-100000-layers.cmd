render @ -o OUT --frames 0:2
