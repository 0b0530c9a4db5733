validate /dev/null
