/**
 * The core's machinery below the API: routing ({@code routing}), sending with failover ({@code produce}),
 * dual-cluster and proxy consumption ({@code consume}) and lanes ({@code lane}). Nothing here is API: classes
 * are public only where a sibling package calls them, and no module but sdk-core may import them (the build's
 * layer test checks it). Applications use {@code io.lanemq.api}; services use {@link io.lanemq.core.client},
 * {@link io.lanemq.core.metrics} and {@link io.lanemq.core.delay}.
 */
package io.lanemq.core.internal;
