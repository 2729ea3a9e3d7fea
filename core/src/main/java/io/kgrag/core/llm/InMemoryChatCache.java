package io.kgrag.core.llm;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link ChatCache} in memory, started from existing entries (for example the {@code llm_cache} table
 * as a Spark job read it) and remembering which entries were {@link #put} since, so that the job appends
 * only those ({@link #added()}). When the existing entries repeat a model and hash, the first one is kept.
 *
 * <p>Serializable, so a job can ship it to its tasks; every method is synchronized, so the threads of one
 * task may share it.
 */
public final class InMemoryChatCache implements ChatCache, Serializable {
  private static final long serialVersionUID = 1L;

  private final Map<Key, CachedChat> entries = new HashMap<>();
  private final List<CachedChat> added = new ArrayList<>();

  private record Key(String model, String promptHash) implements Serializable {}

  /** An empty cache. */
  public InMemoryChatCache() {}

  /** A cache holding {@code existing}; these are not part of {@link #added()}. */
  public InMemoryChatCache(Collection<CachedChat> existing) {
    preload(existing);
  }

  /**
   * Adds {@code existing} entries known from elsewhere (the {@code llm_cache} table) after construction, as
   * the constructor does: they answer lookups but are not part of {@link #added()}; an entry already held
   * for the same model and hash is kept.
   */
  public synchronized void preload(Collection<CachedChat> existing) {
    for (CachedChat c : existing) {
      Objects.requireNonNull(c, "entry");
      entries.putIfAbsent(new Key(c.model(), c.promptHash()), c);
    }
  }

  @Override
  public synchronized Optional<CachedChat> get(String model, String promptHash) {
    return Optional.ofNullable(entries.get(new Key(model, promptHash)));
  }

  @Override
  public synchronized void put(CachedChat entry) {
    Objects.requireNonNull(entry, "entry");
    if (entries.putIfAbsent(new Key(entry.model(), entry.promptHash()), entry) == null) {
      added.add(entry);
    }
  }

  /** The entries put since construction, in the order they were put (none that was already held). */
  public synchronized List<CachedChat> added() {
    return List.copyOf(added);
  }

  /**
   * The entries put since construction from the {@code from}-th on ({@code added().subList(from, …)}
   * without copying the earlier ones), for callers that take them in turns.
   */
  public synchronized List<CachedChat> addedSince(int from) {
    if (from < 0 || from > added.size()) {
      throw new IndexOutOfBoundsException("from " + from + " of " + added.size());
    }
    return List.copyOf(added.subList(from, added.size()));
  }

  /** How many entries the cache holds, existing and added. */
  public synchronized int size() {
    return entries.size();
  }

  @Override
  public synchronized String toString() {
    return "InMemoryChatCache{entries=" + entries.size() + ", added=" + added.size() + "}";
  }
}
