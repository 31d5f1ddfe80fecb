package io.lanemq.config;

/**
 * Where stress-test traffic goes. A logic topic that takes it ({@link LogicTopicConfig#stressTest()})
 * has, on each route, a shadow physical topic on the same cluster: the route's own
 * {@link TopicRoute#shadowTopic()} when it names one, else the route's physical topic followed by
 * {@code shadowSuffix}. Stress messages are sent there and consumed from there, so they never mix
 * with production messages.
 *
 * @param shadowSuffix appended to a route's physical topic to name its shadow; never empty, or the
 *                     shadow would be the production topic itself
 */
public record StressTestConfig(String shadowSuffix) {
    public static final StressTestConfig DEFAULTS = new StressTestConfig("_SHADOW");

    /** The shadow physical topic of {@code route}, on the route's cluster. */
    public String shadowTopicOf(TopicRoute route) {
        return route.shadowTopic().orElseGet(() -> route.physicalTopic() + shadowSuffix);
    }
}
