package io.lanemq.config.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DocumentTextTest {
    private static final String DOCUMENT = """
            # head comment
            topics:
              a:
                routes:
                  - { cluster: x, weight: 5 }   # kept
                  - cluster: y
                    physicalTopic: t
                groups:
                  g:
                  h: { threads: 2 }
            tail: [1, 2]
            """;

    @Test
    void aScalarIsReplacedWhereItStandsAndAMissingKeyIsAddedBesideItsSiblings() {
        String edited = DocumentText.of(DOCUMENT)
                .with(List.of("topics", "a", "routes", 0, "weight"), 7)
                .with(List.of("topics", "a", "routes", 1, "weight"), 3)
                .with(List.of("topics", "a", "groups", "g", "mode"), "PROXY")
                .with(List.of("topics", "a", "groups", "h", "mode"), "PROXY")
                .text();

        assertThat(edited).isEqualTo("""
                # head comment
                topics:
                  a:
                    routes:
                      - { cluster: x, weight: 7 }   # kept
                      - cluster: y
                        physicalTopic: t
                        weight: 3
                    groups:
                      g: { mode: PROXY }
                      h: { threads: 2, mode: PROXY }
                tail: [1, 2]
                """);
    }

    @Test
    void entriesAndItemsAreRemovedAndAddedWithoutTouchingTheirNeighbours() {
        String edited = DocumentText.of(DOCUMENT)
                .without(List.of("topics", "a", "routes", 1))
                .appended(List.of("topics", "a", "routes"), Map.of("cluster", "z"))
                .without(List.of("topics", "a", "groups", "h"))
                .appended(List.of("tail"), 3)
                .with(List.of("topics", "b"), Map.of("routes", List.of(Map.of("cluster", "x"))))
                .text();

        assertThat(edited).isEqualTo("""
                # head comment
                topics:
                  a:
                    routes:
                      - { cluster: x, weight: 5 }   # kept
                      - { cluster: z }
                    groups:
                      g:
                  b:
                    routes:
                      - { cluster: x }
                tail: [1, 2, 3]
                """);
    }

    @Test
    void aJsonDocumentStaysJson() {
        String edited = DocumentText.of("{\"topics\": {\"a\": {\"weight\": 1}}}\n")
                .with(List.of("topics", "a", "weight"), 2)
                .with(List.of("topics", "a", "mode"), "PROXY")
                .text();

        assertThat(edited).isEqualTo("{\"topics\": {\"a\": {\"weight\": 2, \"mode\": \"PROXY\"}}}\n");
    }

    @Test
    void aValueThatWouldReadAsAnotherTypeIsQuoted() {
        String edited = DocumentText.of("a: x\n").with(List.of("a"), "true").with(List.of("b"), "1:2").text();

        assertThat(edited).isEqualTo("a: \"true\"\nb: \"1:2\"\n");
    }
}
