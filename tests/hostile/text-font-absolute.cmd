validate @
