package io.kgrag.core.sgrag.qa;

import java.io.Serializable;

/** A data path the index returned for query path {@code pathNo}: its entity ids in order. */
public record PathHit(int pathNo, long[] nodeIds) implements Serializable {}
