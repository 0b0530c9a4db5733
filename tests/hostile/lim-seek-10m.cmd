seek @ --frame 10000000 -o OUT/f.png
