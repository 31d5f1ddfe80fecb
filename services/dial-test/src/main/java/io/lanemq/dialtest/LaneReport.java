package io.lanemq.dialtest;

/** One row of a report: a lane's counts and latency, for one period or for the whole run. */
public record LaneReport(LaneKey key, LaneCounts counts, LatencySummary latency) {
}
