seek @ --time 0 -o OUT/f.png
