diff @ @
