package dev.loomcrawl.crawler.politeness;

/** Answers' latencies taken together: how many, their mean, and how sure that mean is. Not thread-safe. */
final class Latencies {
    private int count;
    private double sum;
    private double squares;

    void add(double ms) {
        count++;
        sum += ms;
        squares += ms * ms;
    }

    /** Takes in every answer of {@code other}. */
    void addAll(Latencies other) {
        count += other.count;
        sum += other.sum;
        squares += other.squares;
    }

    void clear() {
        count = 0;
        sum = 0;
        squares = 0;
    }

    int count() {
        return count;
    }

    /** In ms; at least one answer. */
    double mean() {
        return sum / count;
    }

    /** The sum of the squared deviations from the mean, in ms²; at least one answer. */
    double deviations() {
        return Math.max(0, squares - sum * mean());
    }

    /** The variance of the mean (the sample variance over the count); at least two answers. */
    double varianceOfMean() {
        return deviations() / count / (count - 1);
    }
}
