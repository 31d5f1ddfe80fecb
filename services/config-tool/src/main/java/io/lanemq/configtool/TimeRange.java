package io.lanemq.configtool;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A half-open time range {@code [from, to)}, written as ISO-8601 writes an interval: {@code <from>/<to>}. */
record TimeRange(Instant from, Instant to) {
    static final String EXAMPLE = "2026-11-27T08:00:00Z/2026-11-27T09:30:00Z";

    boolean contains(Instant instant) {
        return !instant.isBefore(from) && instant.isBefore(to);
    }

    @Override
    public String toString() {
        return from + "/" + to;
    }

    /** Picocli's converter, so a malformed range is a usage error naming the option's value and the expected form. */
    static final class Converter implements ITypeConverter<TimeRange> {
        @Override
        public TimeRange convert(String value) {
            String[] ends = value.split("/", -1);
            if (ends.length != 2) {
                throw new TypeConversionException("'" + value + "' is not a range <from>/<to> of two ISO-8601 instants, e.g. "
                        + EXAMPLE);
            }
            Instant from = instant(value, ends[0]);
            Instant to = instant(value, ends[1]);
            if (!from.isBefore(to)) {
                throw new TypeConversionException("the range " + value + " is empty: its end must come after its start");
            }
            return new TimeRange(from, to);
        }

        private static Instant instant(String range, String end) {
            try {
                return Instant.parse(end);
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("'" + end + "' in the range " + range + " is not an ISO-8601 instant such as "
                        + "2026-11-27T08:00:00Z");
            }
        }
    }
}
