render @ -o OUT
