diff @ @ -o OUT/d.png
