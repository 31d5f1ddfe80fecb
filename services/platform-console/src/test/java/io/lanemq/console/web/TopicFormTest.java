package io.lanemq.console.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.config.ConfigProblem;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.console.change.Configs;
import org.junit.jupiter.api.Test;

class TopicFormTest {
    private static final String DOCUMENT = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:9876" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:9877" }
              cluster-c: { idc: idc-b, nameServer: "127.0.0.1:9878" }
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid, weight: 50 }
                  - { cluster: cluster-c, physicalTopic: order_paid, weight: 50 }
            """;

    private static PlatformConfig config() throws Exception {
        return Configs.parse(DOCUMENT, "test");
    }

    @Test
    void theValidatorsProblemWithARouteLandsBesideTheRowOfItsClusterEvenWhenARowBeforeIsNoRoute() throws Exception {
        PlatformConfig config = config();
        TopicForm form = TopicForm.editing(config, config.topic("order-paid").orElseThrow(), 7);
        form.getRoutes().get(2).setWeight("-5"); // cluster-c's row; cluster-b's row (index 1) has no route

        InvalidPlatformConfigException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidPlatformConfigException.class,
                () -> Configs.applied(form.toChange(), DOCUMENT, "test"));

        ConfigProblem problem = rejected.problems().get(0);
        assertThat(problem.key()).isEqualTo("topics.order-paid.routes[1].weight");
        assertThat(form.fieldOf(problem)).isEqualTo("routes[2].weight");
    }

    @Test
    void aWeightThatIsNotANumberIsNamedByItsKeyBeforeAnythingIsValidated() throws Exception {
        PlatformConfig config = config();
        TopicForm form = TopicForm.editing(config, config.topic("order-paid").orElseThrow(), 7);
        form.getRoutes().get(0).setWeight("half");
        form.setGroups("billing DIRECT\naudit SIDEWAYS");

        assertThatThrownBy(form::toChange).isInstanceOfSatisfying(InvalidPlatformConfigException.class, e -> assertThat(e.problems())
                .extracting(p -> form.fieldOf(p) + " " + p.message())
                .containsExactly("routes[0].weight must be a whole number, was 'half'", "groups must be DIRECT or PROXY, was 'SIDEWAYS'"));
    }
}
