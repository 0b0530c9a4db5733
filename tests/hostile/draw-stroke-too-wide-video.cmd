render @ -o OUT/v.mp4 --frames 1:2 --jobs 2
