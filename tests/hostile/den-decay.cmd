sample @ --times 0,1
