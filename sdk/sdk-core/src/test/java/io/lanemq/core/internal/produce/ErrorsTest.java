package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A binding's failure, which knows physical topics only, as the application sees it: with logic topic and cluster. */
class ErrorsTest {
    @Test
    void aBindingsSendFailureIsNamedWithTheLogicTopicAndClusterAndKeepsItsCause() {
        SendFailedException fromBinding = new SendFailedException("broker busy", null, "cluster-b", null);

        MessagingException seen = Errors.withLogicTopic(new CompletionException(fromBinding), "orders", "cluster-b");

        assertThat(seen).isInstanceOf(SendFailedException.class).hasMessage("broker busy [logicTopic=orders, cluster=cluster-b]")
                .hasCause(fromBinding);
    }

    @Test
    void aRefusedMessageStaysARefusalAndAConfigurationErrorPassesAsItIs() {
        InvalidConfigurationException config = new InvalidConfigurationException("no checker");

        MessagingException refused = Errors.withLogicTopic(new InvalidMessageException("too big", null), "orders", "cluster-a");

        assertThat(refused).isInstanceOf(InvalidMessageException.class).hasMessageContaining("too big (cluster cluster-a)")
                .hasMessageContaining("[logicTopic=orders]");
        assertThat(Errors.withLogicTopic(config, "orders", "cluster-a")).isSameAs(config);
    }

    @Test
    void anythingElseIsAnUnexpectedSendFailure() {
        IllegalStateException bug = new IllegalStateException("binding bug");

        assertThat(Errors.withLogicTopic(bug, "orders", "cluster-a")).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("unexpected failure: java.lang.IllegalStateException: binding bug").hasCause(bug);
    }
}
