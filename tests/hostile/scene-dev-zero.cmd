validate /dev/zero
