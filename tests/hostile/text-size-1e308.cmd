seek @ --frame 2 -o OUT/f.png
