package io.kgrag.core.srag;

import java.io.Serializable;

/**
 * A number per member: the value of a numeric property ({@code release_year}) or, with {@code count}, how
 * many values a property has ("the number of actors").
 */
public record Measure(Property property, boolean count) implements Serializable {}
