package io.lanemq.failover;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An immutable list of callees, grouped by priority, and the weighted pick over it. A membership
 * change builds a new instance around the same {@link Callee} objects, so learned state
 * survives and readers never see a half-applied change.
 *
 * <p>The pick scans the array twice (sum, then walk) instead of keeping a cumulative table:
 * weights and in-flight counts change on every call, so any table would be stale at once, and
 * two passes over a few volatile fields allocate nothing. If values move between the passes the
 * walk may run off the end; the last eligible callee is then as fair a choice as any.
 */
final class Membership<T> {

    private final Callee<T>[] callees;
    /** Group g is {@code callees[groupStart[g] .. groupStart[g + 1])}, lowest priority first. */
    private final int[] groupStart;
    private final double[] groupMaxWeight;
    private final Map<T, Callee<T>> byValue;

    @SuppressWarnings("unchecked")
    Membership(List<Callee<T>> members) {
        List<Callee<T>> sorted = new ArrayList<>(members);
        sorted.sort(Comparator.comparingInt(Callee::priority));
        this.callees = sorted.toArray(new Callee[0]);
        Map<T, Callee<T>> index = new HashMap<>();
        List<Integer> starts = new ArrayList<>();
        List<Double> maxSums = new ArrayList<>();
        for (int i = 0; i < callees.length; i++) {
            Callee<T> callee = callees[i];
            index.put(callee.value, callee);
            if (i == 0 || callee.priority() != callees[i - 1].priority()) {
                starts.add(i);
                maxSums.add(0.0);
            }
            int last = maxSums.size() - 1;
            maxSums.set(last, maxSums.get(last) + callee.limits().max());
        }
        starts.add(callees.length);
        this.groupStart = starts.stream().mapToInt(Integer::intValue).toArray();
        this.groupMaxWeight = maxSums.stream().mapToDouble(Double::doubleValue).toArray();
        this.byValue = Collections.unmodifiableMap(index);
    }

    static <T> Membership<T> empty() {
        return new Membership<>(List.of());
    }

    Callee<T>[] callees() {
        return callees;
    }

    Callee<T> get(T value) {
        return byValue.get(value);
    }

    /**
     * Picks a callee, or null when none is eligible. With several priority groups, group g is
     * taken with probability {@code min(1, health(g) * priorityFactor)}, where health is its
     * current weight over its maximum; otherwise traffic spills to the next group. A group with
     * nothing eligible (all down, excluded, or not admitted by {@code trickle}) always spills.
     *
     * @param trickle which limited callees may be picked now; null admits every callee that is up
     */
    Callee<T> select(Set<T> exclude, double priorityFactor, Trickle<T> trickle) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int groups = groupMaxWeight.length;
        if (groups == 1) {
            return selectIn(0, callees.length, exclude, trickle, random);
        }
        double roll = -1;
        for (int g = 0; g < groups; g++) {
            if (g < groups - 1) {
                double take = health(g) * priorityFactor;
                if (take < 1.0) {
                    if (roll < 0) {
                        roll = random.nextDouble();
                    }
                    if (roll >= take) {
                        // Reuse the same uniform draw for the next group, rescaled to [0, 1).
                        roll = (roll - take) / (1.0 - take);
                        continue;
                    }
                }
            }
            Callee<T> picked = selectIn(groupStart[g], groupStart[g + 1], exclude, trickle, random);
            if (picked != null) {
                return picked;
            }
        }
        // The groups we rolled past may still hold eligible callees; prefer them in order.
        for (int g = 0; g < groups; g++) {
            Callee<T> picked = selectIn(groupStart[g], groupStart[g + 1], exclude, trickle, random);
            if (picked != null) {
                return picked;
            }
        }
        return null;
    }

    private double health(int group) {
        double max = groupMaxWeight[group];
        if (max <= 0) {
            return 0;
        }
        double current = 0;
        for (int i = groupStart[group]; i < groupStart[group + 1]; i++) {
            current += callees[i].weight();
        }
        return current / max;
    }

    private Callee<T> selectIn(int from, int to, Set<T> exclude, Trickle<T> trickle, ThreadLocalRandom random) {
        boolean filter = !exclude.isEmpty();
        Callee<T>[] cs = callees;
        double total = 0;
        for (int i = from; i < to; i++) {
            Callee<T> c = cs[i];
            double w = c.weight();
            if (w > 0 && !(filter && exclude.contains(c.value)) && (trickle == null || trickle.admits(c))) {
                total += effective(w, c.inFlight());
            }
        }
        if (!(total > 0)) {
            return null;
        }
        double left = random.nextDouble() * total;
        Callee<T> last = null;
        for (int i = from; i < to; i++) {
            Callee<T> c = cs[i];
            double w = c.weight();
            if (w > 0 && !(filter && exclude.contains(c.value)) && (trickle == null || trickle.admits(c))) {
                last = c;
                left -= effective(w, c.inFlight());
                if (left < 0) {
                    return c;
                }
            }
        }
        return last;
    }

    /** A callee busy with n calls counts as 1/(1+n) of its weight, steering away from queues. */
    private static double effective(double weight, int inFlight) {
        return inFlight <= 0 ? weight : weight / (1 + inFlight);
    }
}
