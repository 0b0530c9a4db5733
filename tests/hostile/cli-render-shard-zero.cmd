render @ -o OUT --shard 0/0
