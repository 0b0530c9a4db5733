sample @ --times 0
