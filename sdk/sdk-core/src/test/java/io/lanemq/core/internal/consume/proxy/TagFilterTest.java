package io.lanemq.core.internal.consume.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TagFilterTest {
    @Test
    void starTakesEveryMessageWithOrWithoutATag() {
        TagFilter all = TagFilter.parse("*");

        assertThat(all.matches(Optional.empty())).isTrue();
        assertThat(all.matches(Optional.of("paid"))).isTrue();
    }

    @Test
    void alternativesTakeOnlyTheirTags() {
        TagFilter some = TagFilter.parse(" paid || refunded ");

        assertThat(some.matches(Optional.of("paid"))).isTrue();
        assertThat(some.matches(Optional.of("refunded"))).isTrue();
        assertThat(some.matches(Optional.of("cancelled"))).isFalse();
        assertThat(some.matches(Optional.empty())).isFalse();
    }
}
