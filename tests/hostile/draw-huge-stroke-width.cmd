render @ -o OUT --frames 1:2 --jobs 2
