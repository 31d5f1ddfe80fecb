package io.lanemq.spring;

/** The names of the meters the starter itself registers (the SDK's are in {@code SdkMetrics}). */
public final class StarterMetrics {
    /** Requests refused because a message-context header was malformed, by {@value #TAG_HEADER}. */
    public static final String CONTEXT_REJECTED = "lanemq.context.rejected";
    /** The name of the request header at fault. */
    public static final String TAG_HEADER = "header";

    private StarterMetrics() {
    }
}
