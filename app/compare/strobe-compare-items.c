/* strobe-compare-items.c — comparison rows as GObjects and the columns that show them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-compare-items.h"
#include "strobe-format.h"
#include "strobe-log-model.h"
#include "strobe-text.h"

typedef enum { ITEM_TIMER, ITEM_SITE, ITEM_MESSAGE, ITEM_COUNT } ItemKind;

struct _StrobeCompareItem
{
  GObject               parent_instance;
  ItemKind              kind;
  char                 *name;
  char                 *detail;
  StrobeCompareIn       in;
  StrobeCompareTimer    timer;     /* ITEM_TIMER (its name is NULL: see name) */
  StrobeCompareContext *context;
  StrobeMemoryCosts     cost_a, cost_b;   /* ITEM_SITE */
  guint64               n_a, n_b;         /* ITEM_MESSAGE, ITEM_COUNT */
};

G_DEFINE_FINAL_TYPE (StrobeCompareItem, strobe_compare_item, G_TYPE_OBJECT)

StrobeCompareContext *
strobe_compare_context_new (void)
{
  StrobeCompareContext *c = g_new0 (StrobeCompareContext, 1);

  c->ref_count = 1;
  c->tables.span_a = &c->span_a;
  c->tables.span_b = &c->span_b;
  return c;
}

StrobeCompareContext *
strobe_compare_context_ref (StrobeCompareContext *c)
{
  g_atomic_int_inc (&c->ref_count);
  return c;
}

void
strobe_compare_context_unref (StrobeCompareContext *c)
{
  if (c && g_atomic_int_dec_and_test (&c->ref_count))
    {
      g_clear_pointer (&c->sketches, strobe_compare_sketches_unref);
      g_free (c);
    }
}

static void
strobe_compare_item_finalize (GObject *object)
{
  StrobeCompareItem *self = STROBE_COMPARE_ITEM (object);

  g_free (self->name);
  g_free (self->detail);
  g_clear_pointer (&self->context, strobe_compare_context_unref);
  G_OBJECT_CLASS (strobe_compare_item_parent_class)->finalize (object);
}

static void
strobe_compare_item_class_init (StrobeCompareItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_compare_item_finalize;
}

static void
strobe_compare_item_init (StrobeCompareItem *self)
{
}

/* Every row: its kind, its name (taken) and which traces it is in. */
static StrobeCompareItem *
item_new (ItemKind kind, char *name, StrobeCompareIn in)
{
  StrobeCompareItem *self = g_object_new (STROBE_TYPE_COMPARE_ITEM, NULL);

  self->kind = kind;
  self->name = name;
  self->in = in;
  return self;
}

StrobeCompareItem *
strobe_compare_item_new_timer (const StrobeCompareTimer *timer, StrobeCompareContext *context)
{
  StrobeCompareItem *self = item_new (ITEM_TIMER, g_strdup (timer->name), timer->in);

  self->timer = *timer;
  self->timer.name = NULL;
  self->context = strobe_compare_context_ref (context);
  return self;
}

StrobeCompareItem *
strobe_compare_item_new_site (const StrobeCompareMemorySite *site)
{
  StrobeCompareItem *self = item_new (ITEM_SITE, g_strdup (site->name), site->in);

  self->cost_a = site->a;
  self->cost_b = site->b;
  return self;
}

/* The log's rows: a verbosity and a count in each trace. */
static StrobeCompareItem *
log_item_new (ItemKind kind, char *name, guint8 verbosity, StrobeCompareIn in, guint64 a, guint64 b)
{
  StrobeCompareItem *self = item_new (kind, name, in);

  self->detail = g_strdup (strobe_log_verbosity_name (verbosity));
  self->n_a = a;
  self->n_b = b;
  return self;
}

StrobeCompareItem *
strobe_compare_item_new_message (const StrobeCompareLogProblem *p)
{
  return log_item_new (ITEM_MESSAGE, g_strdup_printf ("%s: %s", p->category, p->text ? p->text : p->format),
                       p->verbosity, p->in, p->a, p->b);
}

StrobeCompareItem *
strobe_compare_item_new_count (const StrobeCompareLogCount *c)
{
  return log_item_new (ITEM_COUNT, g_strdup (c->category), c->verbosity, c->in, c->a, c->b);
}

const char *
strobe_compare_item_get_name (StrobeCompareItem *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_ITEM (self), NULL);
  return self->name;
}

StrobeCompareIn
strobe_compare_item_get_in (StrobeCompareItem *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_ITEM (self), 0);
  return self->in;
}

const StrobeCompareTimer *
strobe_compare_item_get_timer (StrobeCompareItem *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_ITEM (self) && self->kind == ITEM_TIMER, NULL);
  return &self->timer;
}

void
strobe_compare_item_get_metric (StrobeCompareItem *self, StrobeCompareMetric metric, gdouble *a, gdouble *b)
{
  StrobeCompareTimer row;

  g_return_if_fail (STROBE_IS_COMPARE_ITEM (self) && self->kind == ITEM_TIMER);
  row = self->timer;
  row.name = self->name;
  strobe_compare_timer_pair (&row, metric, &self->context->tables, a, b);
  if (!(self->in & STROBE_COMPARE_IN_A))
    *a = NAN;
  if (!(self->in & STROBE_COMPARE_IN_B))
    *b = NAN;
}

/* ---- cells ------------------------------------------------------------------------------ */

#define ITEM(p) ((StrobeCompareItem *) (p))

static char *
value_text (gdouble v, gboolean is_time)
{
  if (isnan (v))
    return g_strdup ("—");
  if (is_time)
    return strobe_format_duration_s (v);
  /* Counts and bytes in full, grouped ("3 834 980", not "3.83498e+06"); a count per
   * frame keeps its fraction. */
  if (v == floor (v) && fabs (v) < 9007199254740992.0)
    {
      g_autofree char *n = strobe_format_count ((guint64) fabs (v));

      return v < 0 ? g_strconcat ("-", n, NULL) : g_steal_pointer (&n);
    }
  return g_strdup_printf ("%.*f", fabs (v) >= 100 ? 1 : 3, v);
}

static gdouble
percent (gdouble a, gdouble b)
{
  gdouble d, p;

  strobe_compare_delta (isnan (a) ? 0 : a, isnan (b) ? 0 : b, &d, &p);
  return isnan (a) ? NAN : p;
}

static char *
percent_text (StrobeCompareItem *item, gdouble p)
{
  if (item->in == STROBE_COMPARE_IN_B)
    return g_strdup (_("new"));
  if (item->in == STROBE_COMPARE_IN_A)
    return g_strdup (_("gone"));
  if (isnan (p))
    return g_strdup ("—");
  /* Two clocks' roundings leave -0.0: no change reads as no change. */
  if (fabs (p) < 0.05)
    p = 0;
  /* Past ten times as much, the factor reads better than "+13092.3%" (and fits). */
  if (p >= 900)
    return g_strdup_printf ("×%.*f", p >= 9900 ? 0 : 1, 1 + p / 100);
  return g_strdup_printf ("%+.1f%%", p);
}

/* Sorting by a percentage: new rows above everything (an infinite rise), gone ones below. */
static gdouble
percent_key (StrobeCompareItem *item, gdouble p)
{
  if (item->in == STROBE_COMPARE_IN_B)
    return INFINITY;
  if (item->in == STROBE_COMPARE_IN_A)
    return -INFINITY;
  return isnan (p) ? 0 : p;
}

static int
cmp_double (gdouble a, gdouble b)
{
  a = isnan (a) ? -INFINITY : a;
  b = isnan (b) ? -INFINITY : b;
  return (a > b) - (a < b);
}

static const char *
delta_class (gpointer p)
{
  gdouble a, b, pc;

  if (ITEM (p)->kind != ITEM_TIMER)
    return NULL;
  strobe_compare_item_get_metric (ITEM (p), STROBE_COMPARE_INCL, &a, &b);
  pc = percent (a, b);
  if (ITEM (p)->in == STROBE_COMPARE_IN_B || pc > 1)
    return "strobe-worse";
  if (ITEM (p)->in == STROBE_COMPARE_IN_A || pc < -1)
    return "strobe-better";
  return NULL;
}

#define TIMER_FIGURE(m, M, is_time)                                                                       \
  static char *t_##m##_a (gpointer p) { gdouble a, b; strobe_compare_item_get_metric (ITEM (p), M, &a, &b); return value_text (a, is_time); } \
  static char *t_##m##_b (gpointer p) { gdouble a, b; strobe_compare_item_get_metric (ITEM (p), M, &a, &b); return value_text (b, is_time); } \
  static char *t_##m##_p (gpointer p) { gdouble a, b; strobe_compare_item_get_metric (ITEM (p), M, &a, &b); return percent_text (ITEM (p), percent (a, b)); } \
  static int k_##m##_a (gpointer x, gpointer y) { gdouble a1, b1, a2, b2; strobe_compare_item_get_metric (ITEM (x), M, &a1, &b1); strobe_compare_item_get_metric (ITEM (y), M, &a2, &b2); return cmp_double (a1, a2); } \
  static int k_##m##_b (gpointer x, gpointer y) { gdouble a1, b1, a2, b2; strobe_compare_item_get_metric (ITEM (x), M, &a1, &b1); strobe_compare_item_get_metric (ITEM (y), M, &a2, &b2); return cmp_double (b1, b2); } \
  static int k_##m##_p (gpointer x, gpointer y) { gdouble a1, b1, a2, b2; strobe_compare_item_get_metric (ITEM (x), M, &a1, &b1); strobe_compare_item_get_metric (ITEM (y), M, &a2, &b2); return cmp_double (percent_key (ITEM (x), percent (a1, b1)), percent_key (ITEM (y), percent (a2, b2))); }

static gdouble
site_value (StrobeCompareItem *item, StrobeCompareMemoryCost cost, gboolean b)
{
  if (!(item->in & (b ? STROBE_COMPARE_IN_B : STROBE_COMPARE_IN_A)))
    return NAN;
  return strobe_compare_memory_value (b ? &item->cost_b : &item->cost_a, cost);
}

static char *
site_delta_text (StrobeCompareItem *item, StrobeCompareMemoryCost cost)
{
  gdouble a = site_value (item, cost, FALSE), b = site_value (item, cost, TRUE);

  return g_strdup_printf ("%+.0f", (isnan (b) ? 0 : b) - (isnan (a) ? 0 : a));
}

static gdouble
site_delta (StrobeCompareItem *item, StrobeCompareMemoryCost cost)
{
  gdouble a = site_value (item, cost, FALSE), b = site_value (item, cost, TRUE);

  return (isnan (b) ? 0 : b) - (isnan (a) ? 0 : a);
}

static const char *
site_delta_class (gpointer p)
{
  gdouble d = site_delta (ITEM (p), STROBE_COMPARE_MEM_BYTES);

  return d > 0 ? "strobe-worse" : d < 0 ? "strobe-better" : NULL;
}

#define SITE_FIGURE(c, C)                                                                              \
  static char *s_##c##_a (gpointer p) { return value_text (site_value (ITEM (p), C, FALSE), FALSE); }  \
  static char *s_##c##_b (gpointer p) { return value_text (site_value (ITEM (p), C, TRUE), FALSE); }   \
  static char *s_##c##_d (gpointer p) { return site_delta_text (ITEM (p), C); }                         \
  static int j_##c##_a (gpointer x, gpointer y) { return cmp_double (site_value (ITEM (x), C, FALSE), site_value (ITEM (y), C, FALSE)); } \
  static int j_##c##_b (gpointer x, gpointer y) { return cmp_double (site_value (ITEM (x), C, TRUE), site_value (ITEM (y), C, TRUE)); } \
  static int j_##c##_d (gpointer x, gpointer y) { return cmp_double (site_delta (ITEM (x), C), site_delta (ITEM (y), C)); }

TIMER_FIGURE (count, STROBE_COMPARE_COUNT, FALSE)
TIMER_FIGURE (incl, STROBE_COMPARE_INCL, TRUE)
TIMER_FIGURE (excl, STROBE_COMPARE_EXCL, TRUE)
TIMER_FIGURE (mean, STROBE_COMPARE_MEAN, TRUE)
TIMER_FIGURE (median, STROBE_COMPARE_MEDIAN, TRUE)
TIMER_FIGURE (p95, STROBE_COMPARE_P95, TRUE)
TIMER_FIGURE (max, STROBE_COMPARE_MAX, TRUE)
SITE_FIGURE (peak, STROBE_COMPARE_MEM_PEAK)
SITE_FIGURE (leaked, STROBE_COMPARE_MEM_LEAKED)
SITE_FIGURE (allocations, STROBE_COMPARE_MEM_ALLOCATIONS)
SITE_FIGURE (bytes, STROBE_COMPARE_MEM_BYTES)

static char *c_name (gpointer p) { return strobe_text_escape (ITEM (p)->name, STROBE_TEXT_PLAIN); }
static int k_name (gpointer x, gpointer y) { return strobe_table_compare_str (ITEM (x)->name, ITEM (y)->name); }
/* "gone" is «пропало» in Russian: the "In" column is eight characters wide. */
static char *c_in (gpointer p)
{
  StrobeCompareIn in = ITEM (p)->in;
  return g_strdup (in == STROBE_COMPARE_IN_B ? _("new") : in == STROBE_COMPARE_IN_A ? _("gone") : "");
}
static int k_in (gpointer x, gpointer y) { return (int) ITEM (x)->in - (int) ITEM (y)->in; }
static char *c_detail (gpointer p) { return g_strdup (ITEM (p)->detail ? ITEM (p)->detail : ""); }
static int k_detail (gpointer x, gpointer y) { return strobe_table_compare_str (ITEM (x)->detail, ITEM (y)->detail); }
static char *c_n_a (gpointer p) { return strobe_format_count (ITEM (p)->n_a); }
static char *c_n_b (gpointer p) { return strobe_format_count (ITEM (p)->n_b); }
static char *c_n_d (gpointer p) { return g_strdup_printf ("%+" G_GINT64_FORMAT, (gint64) ITEM (p)->n_b - (gint64) ITEM (p)->n_a); }
static int k_n_a (gpointer x, gpointer y) { return strobe_table_compare_u64 (ITEM (x)->n_a, ITEM (y)->n_a); }
static int k_n_b (gpointer x, gpointer y) { return strobe_table_compare_u64 (ITEM (x)->n_b, ITEM (y)->n_b); }
static int k_n_d (gpointer x, gpointer y)
{
  gint64 a = (gint64) ITEM (x)->n_b - (gint64) ITEM (x)->n_a, b = (gint64) ITEM (y)->n_b - (gint64) ITEM (y)->n_a;
  return (a > b) - (a < b);
}

/* A figure's three columns: A, B and the change in percent (coloured worse or better). */
#define TIMER_COLUMNS(title_a, title_b, title_p, m)                                        \
  { title_a, t_##m##_a, k_##m##_a, 11, TRUE, FALSE, NULL },                                \
  { title_b, t_##m##_b, k_##m##_b, 11, TRUE, FALSE, NULL },                                \
  { title_p, t_##m##_p, k_##m##_p, 8, TRUE, FALSE, delta_class }

static const StrobeTableColumn timer_columns[] = {
  { N_("Name"), c_name, k_name, 24, FALSE, TRUE, NULL },
  { N_("In"), c_in, k_in, 8, FALSE, FALSE, NULL },
  TIMER_COLUMNS (N_("Calls A"), N_("Calls B"), N_("Calls Δ%"), count),
  TIMER_COLUMNS (N_("Incl A"), N_("Incl B"), N_("Incl Δ%"), incl),
  TIMER_COLUMNS (N_("Excl A"), N_("Excl B"), N_("Excl Δ%"), excl),
  TIMER_COLUMNS (N_("Mean A"), N_("Mean B"), N_("Mean Δ%"), mean),
  TIMER_COLUMNS (N_("Median A"), N_("Median B"), N_("Median Δ%"), median),
  TIMER_COLUMNS (N_("P95 A"), N_("P95 B"), N_("P95 Δ%"), p95),
  TIMER_COLUMNS (N_("Max A"), N_("Max B"), N_("Max Δ%"), max),
};

/* A cost's three columns: A, B and the change in its unit. */
#define SITE_COLUMNS(title_a, title_b, title_d, c)                                         \
  { title_a, s_##c##_a, j_##c##_a, 10, TRUE, FALSE, NULL },                                \
  { title_b, s_##c##_b, j_##c##_b, 10, TRUE, FALSE, NULL },                                \
  { title_d, s_##c##_d, j_##c##_d, 10, TRUE, FALSE, site_delta_class }

static const StrobeTableColumn site_columns[] = {
  { N_("Allocation site"), c_name, k_name, 28, FALSE, TRUE, NULL },
  { N_("In"), c_in, k_in, 8, FALSE, FALSE, NULL },
  SITE_COLUMNS (N_("Peak A"), N_("Peak B"), N_("Peak Δ"), peak),
  SITE_COLUMNS (N_("Leaked A"), N_("Leaked B"), N_("Leaked Δ"), leaked),
  SITE_COLUMNS (N_("Allocations A"), N_("Allocations B"), N_("Allocations Δ"), allocations),
  SITE_COLUMNS (N_("Bytes A"), N_("Bytes B"), N_("Bytes Δ"), bytes),
};

/* The log's two tables differ only in what their rows are: a message or a category. */
#define MESSAGE_COLUMNS(first, width)                                                      \
  { first, c_name, k_name, width, FALSE, TRUE, NULL },                                     \
  { N_("Verbosity"), c_detail, k_detail, 8, FALSE, FALSE, NULL },                          \
  { N_("In"), c_in, k_in, 8, FALSE, FALSE, NULL },                                         \
  { N_("Messages A"), c_n_a, k_n_a, 8, TRUE, FALSE, NULL },                                \
  { N_("Messages B"), c_n_b, k_n_b, 8, TRUE, FALSE, NULL },                                \
  { N_("Messages Δ"), c_n_d, k_n_d, 8, TRUE, FALSE, NULL }

static const StrobeTableColumn message_columns[] = { MESSAGE_COLUMNS (N_("Message"), 40) };
static const StrobeTableColumn count_columns[] = { MESSAGE_COLUMNS (N_("Category"), 20) };

const StrobeTableColumn *
strobe_compare_timer_columns (guint *n)
{
  *n = G_N_ELEMENTS (timer_columns);
  return timer_columns;
}

const StrobeTableColumn *
strobe_compare_site_columns (guint *n)
{
  *n = G_N_ELEMENTS (site_columns);
  return site_columns;
}

const StrobeTableColumn *
strobe_compare_message_columns (guint *n)
{
  *n = G_N_ELEMENTS (message_columns);
  return message_columns;
}

const StrobeTableColumn *
strobe_compare_count_columns (guint *n)
{
  *n = G_N_ELEMENTS (count_columns);
  return count_columns;
}
