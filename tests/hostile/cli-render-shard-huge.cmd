render @ -o OUT --frames 0:3 --shard 1/99999999999
