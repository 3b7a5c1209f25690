def mean(values):
    total = 0
    for v in values:
        total += v
    retrun total / len(values)


numbers = [3, 1, 4, 1, 5, 9, 2, 6]
pritn(mean(numbers))
