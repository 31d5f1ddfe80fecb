package io.lanemq.core.delay;

import io.lanemq.api.InvalidMessageException;

/**
 * What {@link io.lanemq.api.SendResult#delayId()} holds: the record's id and the cluster whose
 * internal topic stored it, as {@code <id>@<cluster>}. A cancel must go to that cluster, where
 * the server holding the record reads it.
 */
public record DelayTicket(String id, String cluster) {

    /**
     * Reads the text form.
     *
     * @throws InvalidMessageException {@code text} is not {@code <16 hex>-<16 hex>@<cluster>}
     */
    public static DelayTicket parse(String text) throws InvalidMessageException {
        int at = text == null ? -1 : text.indexOf('@');
        if (at < 0 || at == text.length() - 1 || DelayProtocol.dueAtOf(text.substring(0, at)).isEmpty()) {
            throw new InvalidMessageException("not a delay id (want <16 hex digits>-<16 hex digits>@<cluster>, "
                    + "as SendResult.delayId() gives): " + text, null);
        }
        return new DelayTicket(text.substring(0, at), text.substring(at + 1));
    }

    @Override
    public String toString() {
        return id + "@" + cluster;
    }
}
