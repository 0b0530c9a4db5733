render @ -o OUT --jobs 1000000
