/**
 * The delay server's engine: stores delayed records on local disk and delivers each at its due
 * millisecond, with no messaging of its own.
 *
 * <p>Public: {@link io.lanemq.delay.DelayEngine} and its builder, {@link io.lanemq.delay.DelayedRecord},
 * {@link io.lanemq.delay.DelayId}, {@link io.lanemq.delay.DeliverySink},
 * the results ({@link io.lanemq.delay.CancelResult}, {@link io.lanemq.delay.RecoveryReport},
 * {@link io.lanemq.delay.StoreHealth}) and the checked exceptions. Time is injected: wall time as the JDK's
 * {@link java.time.InstantSource}, durations as {@link io.lanemq.support.Ticker}. Everything else is
 * package-private: the store ({@code SegmentStore}, {@code Segment}, {@code MarkFile},
 * {@code RecordCodec}, {@code SegmentRecovery}) and the scheduling ({@code TimingWheel},
 * {@code Dispatcher}, {@code Loader}, {@code MarkWriter}). See the module's README for the design.
 */
package io.lanemq.delay;
