check @ --golden OUT --update --jobs 2
