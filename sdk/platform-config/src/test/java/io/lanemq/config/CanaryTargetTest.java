package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CanaryTargetTest {
    private static List<ClientIdentity> instancesOf(String application, int count) {
        return IntStream.range(0, count).mapToObj(i -> new ClientIdentity(application, application + "-" + i)).toList();
    }

    private static long chosen(CanaryTarget target, List<ClientIdentity> clients, long seed) {
        return clients.stream().filter(c -> target.selects(c, seed)).count();
    }

    @Test
    void namedInstancesAreChosenWhateverTheirApplication() {
        CanaryTarget target = new CanaryTarget(List.of("orders-7"), List.of(), 0);

        assertThat(target.selects(new ClientIdentity("orders", "orders-7"), 12)).isTrue();
        assertThat(target.selects(new ClientIdentity("orders", "orders-8"), 12)).as("not named").isFalse();
    }

    @Test
    void namedApplicationsWithoutAPercentTakeAllTheirInstancesAndNoOther() {
        CanaryTarget target = new CanaryTarget(List.of(), List.of("billing"), 0);

        assertThat(chosen(target, instancesOf("billing", 50), 3)).isEqualTo(50);
        assertThat(chosen(target, instancesOf("orders", 50), 3)).isZero();
    }

    @Test
    void aPercentTakesAboutThatShareOfEachApplicationsInstances() {
        CanaryTarget target = new CanaryTarget(List.of(), List.of(), 10);

        for (String application : List.of("orders", "billing", "search")) {
            long chosen = chosen(target, instancesOf(application, 4_000), 1207);
            // Binomial(4000, 0.1): sd 19; 100 is over 5 sd.
            assertThat(chosen).as("%s: share of 4,000 instances", application).isBetween(300L, 500L);
        }
    }

    @Test
    void aPercentWithinNamedApplicationsLeavesTheOthersAlone() {
        CanaryTarget target = new CanaryTarget(List.of(), List.of("billing"), 20);

        assertThat(chosen(target, instancesOf("billing", 2_000), 5)).isBetween(300L, 500L);
        assertThat(chosen(target, instancesOf("orders", 2_000), 5)).isZero();
    }

    @Test
    void theSameInstanceIsChosenAgainAndAWiderCanaryOverTheSameBaseKeepsItsInstances() {
        List<ClientIdentity> clients = instancesOf("orders", 1_000);
        CanaryTarget narrow = new CanaryTarget(List.of(), List.of(), 5);
        CanaryTarget wide = new CanaryTarget(List.of(), List.of(), 30);

        List<ClientIdentity> first = clients.stream().filter(c -> narrow.selects(c, 42)).toList();
        assertThat(clients.stream().filter(c -> narrow.selects(c, 42)).toList()).as("stable").isEqualTo(first);
        assertThat(first).as("widening keeps the clients already on the candidate")
                .allMatch(c -> wide.selects(c, 42));
        List<ClientIdentity> nextChange = clients.stream().filter(c -> narrow.selects(c, 43)).toList();
        assertThat(nextChange).as("another base picks other instances").isNotEqualTo(first);
    }

    @Test
    void aTargetThatChoosesNobodyOrEverybodyIsRefused() {
        assertThatThrownBy(() -> new CanaryTarget(List.of(), List.of(), 0)).hasMessageContaining("must choose some clients");
        assertThatThrownBy(() -> new CanaryTarget(List.of(), List.of(), 100)).hasMessageContaining("publish it instead");
        assertThatThrownBy(() -> new CanaryTarget(List.of(), List.of(), 101)).hasMessageContaining("0-100, was 101");
    }

    @Test
    void aCanaryAppliesOnlyOverTheRevisionItWasMadeFrom() throws Exception {
        Canary canary = Canary.parse(new Canary(17, new CanaryTarget(List.of("a-1"), List.of(), 0), "x: 1\n").toText(), "test");
        ClientIdentity chosen = new ClientIdentity("a", "a-1");

        assertThat(canary.appliesTo(chosen, 17)).isTrue();
        assertThat(canary.appliesTo(chosen, 18)).as("the configuration moved on: the candidate is stale").isFalse();
        assertThat(canary.document()).isEqualTo("x: 1\n");
    }

    @Test
    void anUnreadableCanaryNamesWhatIsWrong() {
        assertThatThrownBy(() -> Canary.parse("percent: 10\n", "file:/etc/p.yaml.canary"))
                .hasMessageContaining("file:/etc/p.yaml.canary has no document");
        assertThatThrownBy(() -> Canary.parse("percent: 120\ndocument: 'x: 1'\n", "k"))
                .hasMessageContaining("canary percent must be 0-100, was 120");
        assertThatThrownBy(() -> Canary.parse("percnt: 10\ndocument: 'x: 1'\n", "k"))
                .hasMessageContaining("percnt");
    }
}
