package io.lanemq.console.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConfigProblem;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.console.change.Configs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicFormTest {
    private static PlatformConfig config() throws Exception {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:9877", Map.of()))
                .cluster(new ClusterConfig("cluster-c", "idc-b", "127.0.0.1:9878", Map.of()))
                .topic(new LogicTopicConfig("order-paid", List.of(new TopicRoute("cluster-a", "order_paid", 50),
                        new TopicRoute("cluster-c", "order_paid", 50)), Map.of()))
                .build();
    }

    @Test
    void theValidatorsProblemWithARouteLandsBesideTheRowOfItsClusterEvenWhenARowBeforeIsNoRoute() throws Exception {
        PlatformConfig config = config();
        TopicForm form = TopicForm.editing(config, config.topic("order-paid").orElseThrow(), 7);
        form.getRoutes().get(2).setWeight("-5"); // cluster-c's row; cluster-b's row (index 1) has no route

        InvalidPlatformConfigException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidPlatformConfigException.class,
                () -> Configs.validatedYaml(form.toChange().applyTo(config), "test"));

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
