validate /dev/urandom
