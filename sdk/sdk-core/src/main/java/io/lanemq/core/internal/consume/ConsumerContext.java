package io.lanemq.core.internal.consume;

import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;

/**
 * What a consumer shares with its client, handed down as one value: the binding it connects through, the meters, the
 * clock and the client's record of clusters not attached yet.
 */
record ConsumerContext(MessagingBinding binding, SdkMetrics metrics, Ticker ticker, ClusterAttachments attachments) {
}
