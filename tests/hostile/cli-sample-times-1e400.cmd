sample @ --times 1e400
