package io.lanemq.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.store.HistoryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HistoryPageTest {
    private static List<HistoryEntry> history(int count) {
        // Newest first, as the store gives them: revisions count+1 down to 2.
        return LongStream.rangeClosed(2, count + 1).map(r -> count + 3 - r)
                .mapToObj(r -> new HistoryEntry(r, "olga", null, "c" + r, "change " + r, "", "", "")).toList();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 49, 50, 51, 100, 101, 137})
    void walkingOlderThenNewerShowsEveryEntryOnceInOrder(int count) {
        List<HistoryEntry> all = history(count);
        List<HistoryEntry> seen = new ArrayList<>();
        HistoryPage page = HistoryPage.of(all, 1, PagesController.HISTORY_PAGE);
        assertThat(page.hasNewer()).as("page 1 is the newest").isFalse();
        seen.addAll(page.entries());
        while (page.hasOlder()) {
            HistoryPage older = HistoryPage.of(all, page.page() + 1, PagesController.HISTORY_PAGE);
            assertThat(older.page()).isEqualTo(page.page() + 1);
            assertThat(older.hasNewer()).as("an older page links back").isTrue();
            assertThat(older.entries().get(0).revision()).as("continues where the newer page ended")
                    .isLessThan(page.entries().get(page.entries().size() - 1).revision());
            page = older;
            seen.addAll(page.entries());
        }
        assertThat(seen).as("every entry once, newest first").isEqualTo(all);
        assertThat(page.pages()).isEqualTo((count + 49) / 50);
        assertThat(page.entries()).hasSizeBetween(1, 50);
        while (page.hasNewer()) {
            page = HistoryPage.of(all, page.page() - 1, PagesController.HISTORY_PAGE);
        }
        assertThat(page.page()).isEqualTo(1);
        assertThat(page.entries()).isEqualTo(all.subList(0, Math.min(50, count)));
    }

    @Test
    void aPageOutOfRangeGivesTheNearestAndAnEmptyHistoryIsOneEmptyPage() {
        List<HistoryEntry> all = history(120);
        assertThat(HistoryPage.of(all, 9, 50)).satisfies(p -> {
            assertThat(p.page()).isEqualTo(3);
            assertThat(p.entries()).hasSize(20);
            assertThat(p.hasOlder()).isFalse();
        });
        assertThat(HistoryPage.of(all, -4, 50).page()).isEqualTo(1);
        assertThat(HistoryPage.of(List.of(), 1, 50)).satisfies(p -> {
            assertThat(p.pages()).isEqualTo(1);
            assertThat(p.entries()).isEmpty();
            assertThat(p.hasNewer() || p.hasOlder()).isFalse();
        });
    }
}
