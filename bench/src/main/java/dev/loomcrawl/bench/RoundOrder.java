package dev.loomcrawl.bench;

import java.util.List;

/**
 * The order in which a benchmark round takes its turns: as given in even rounds, reversed in odd ones (A B, B A,
 * A B, ...). In A B A B the first of each pair always runs a little earlier, and on a machine whose speed drifts
 * one way for minutes that is a bias of several percent, not noise. Over two rounds the reversed order cancels a
 * drift that is linear.
 */
final class RoundOrder {
    private RoundOrder() {}

    static <T> List<T> of(List<T> turns, int round) {
        return round % 2 == 0 ? turns : turns.reversed();
    }
}
