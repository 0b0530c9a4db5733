sample @ --times 0,9.22e300
