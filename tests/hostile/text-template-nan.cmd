seek @ --time 0.5 -o OUT/f.png
