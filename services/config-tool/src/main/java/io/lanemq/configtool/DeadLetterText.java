package io.lanemq.configtool;

import io.lanemq.api.spi.BoundMessage;
import io.lanemq.rocketmq.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.TreeMap;

/** A dead letter as {@code dlq show} prints it: where and when, what it carried, and its body as text or base64. */
final class DeadLetterText {
    private DeadLetterText() {
    }

    static String of(DeadLetter letter, int maxBodyChars) {
        BoundMessage message = letter.message();
        StringBuilder text = new StringBuilder();
        text.append("--- ").append(message.messageId()).append(" on ").append(letter.cluster())
                .append(" (from ").append(letter.originalTopic()).append(")\n");
        text.append("  dead-lettered ").append(letter.deadLetteredAt()).append(", sent ").append(letter.bornAt())
                .append(", deliveries ").append(letter.deliveries()).append('\n');
        if (!message.keys().isEmpty()) {
            text.append("  keys ").append(String.join(" ", message.keys())).append('\n');
        }
        message.tag().ifPresent(tag -> text.append("  tag ").append(tag).append('\n'));
        message.shardingKey().ifPresent(key -> text.append("  sharding key ").append(key).append('\n'));
        new TreeMap<>(message.properties()).forEach((name, value) -> text.append("  property ").append(name).append('=')
                .append(value).append('\n'));
        text.append("  body, ").append(message.body().length).append(" bytes").append(body(message.body(), maxBodyChars));
        return text.toString();
    }

    /** UTF-8 text when it is, else base64 (a binary body printed raw would garble the terminal); cut at the limit. */
    private static String body(byte[] body, int maxChars) {
        String shown;
        String form;
        try {
            shown = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
            form = ":";
        } catch (CharacterCodingException e) {
            shown = Base64.getEncoder().encodeToString(body);
            form = ", base64:";
        }
        if (shown.length() > maxChars) {
            shown = shown.substring(0, maxChars) + " ... (" + (shown.length() - maxChars) + " more characters)";
        }
        return form + "\n  " + shown;
    }
}
