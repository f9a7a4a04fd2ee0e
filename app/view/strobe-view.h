/* strobe-view.h — the plug-in point for the views of a trace (overview, timeline, log,
 * memory…). A view is a widget built on one StrobeDocument and the StrobeViewState every
 * view of that trace shares; its class names its page (name, title, icon, order). A view
 * lives in its own folder and registers its type once (strobe_view_register), and every
 * trace tab shows one of each, in a stack.
 *
 * Actions a view offers (find, zoom…) are installed on its class with
 * gtk_widget_class_install_action() and bound with gtk_widget_class_add_binding*(), so
 * the focus chain routes the keys to the view that has the focus. A view that can search
 * installs "view.find": Ctrl+F anywhere on the trace's page activates the visible view's.
 * The page offers "document.show-page" (a page name, "s") to bring another view to the
 * front, e.g. after setting the view state's selected message for the log view.
 *
 * Models: a view names the models it needs in its constructed(), with
 * strobe_document_get_model (document, STROBE_TYPE_…) — views are made before the document
 * starts loading, so a model the document does not build yet is made and fed for it. What
 * only this view selects (a row, a node) stays in the view; the StrobeViewState carries
 * what other views follow. tests/app/counters/ is a whole view added that way.
 *
 * Keyboard: mark each sub-pane of a view (a side panel, a table) with strobe_pane_mark()
 * so F6 reaches it; the view itself is a pane already.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

#define STROBE_TYPE_VIEW (strobe_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (StrobeView, strobe_view, STROBE, VIEW, GtkWidget)

struct _StrobeViewClass
{
  GtkWidgetClass parent_class;

  /* The document has more to show (the models that grew), or its status changed
   * (@changes is then every flag). Also called once when the view is made. */
  void (*document_changed) (StrobeView            *self,
                            StrobeDocumentChanges  changes);
  /* The view became the visible page: move the focus where the user expects it. */
  void (*focus_default)    (StrobeView            *self);

  /*< private >*/
  const char *page_name;
  const char *title;
  const char *icon_name;
  int         position;
  gpointer    padding[8];
};

/* In class_init: the stack page's name ("timeline"), its title (an N_() string,
 * translated when shown, with a mnemonic underscore if wanted), a symbolic icon, and its
 * place among the views (smaller first). */
void                 strobe_view_class_set_page   (StrobeViewClass *klass,
                                                   const char      *page_name,
                                                   const char      *title,
                                                   const char      *icon_name,
                                                   int              position);
const char          *strobe_view_class_get_page_name (StrobeViewClass *klass);
/* Translated. */
const char          *strobe_view_class_get_title  (StrobeViewClass *klass);
const char          *strobe_view_class_get_icon_name (StrobeViewClass *klass);

StrobeDocument      *strobe_view_get_document     (StrobeView      *self);
StrobeViewState     *strobe_view_get_state        (StrobeView      *self);
void                 strobe_view_focus_default    (StrobeView      *self);

/* ---- registry ---------------------------------------------------------------------- */
/* Once per view type, at start-up (app/shell/strobe-views.c). */
void                 strobe_view_register         (GType            view_type);
/* The registered types (GType), by position. Owned by the registry. */
const GArray        *strobe_view_get_registered   (void);
/* A new view of @view_type on @document and @state. */
StrobeView          *strobe_view_new              (GType            view_type,
                                                   StrobeDocument  *document,
                                                   StrobeViewState *state);

G_END_DECLS
