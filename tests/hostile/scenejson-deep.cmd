check SCENE --golden GOLDEN
