seek @ --time 0 -o OUT/x.png
