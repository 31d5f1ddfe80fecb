package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BatchResultTest {
    @Test
    void deadLettersTakePrecedenceOverWhatTheResultSaidOfTheirIndexes() {
        BatchResult result = BatchResult.retryFrom(5).withDeadLetters(2, 6);

        assertThat(IntStream.range(0, 8).mapToObj(result::resultOf)).containsExactly(
                ConsumeResult.SUCCESS, ConsumeResult.SUCCESS, ConsumeResult.DEAD_LETTER, ConsumeResult.SUCCESS,
                ConsumeResult.SUCCESS, ConsumeResult.RETRY_LATER, ConsumeResult.DEAD_LETTER, ConsumeResult.RETRY_LATER);
    }

    @Test
    void deadLetterOnlyLeavesTheOthersDoneAndAddingMoreKeepsTheFirst() {
        BatchResult result = BatchResult.deadLetterOnly(1).withDeadLetters(3);

        assertThat(IntStream.range(0, 4).mapToObj(result::resultOf)).containsExactly(
                ConsumeResult.SUCCESS, ConsumeResult.DEAD_LETTER, ConsumeResult.SUCCESS, ConsumeResult.DEAD_LETTER);
        assertThat(BatchResult.success().resultOf(1)).as("the shared success is untouched").isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void aNegativeIndexIsRefusedWithTheMethodsName() {
        assertThatThrownBy(() -> BatchResult.deadLetterOnly(-1)).hasMessageContaining("withDeadLetters indexes must be >= 0");
    }
}
