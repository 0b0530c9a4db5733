diff @ REF -o OUT/d.png
