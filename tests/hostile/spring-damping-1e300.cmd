sample @ --times 0,2.71e298
