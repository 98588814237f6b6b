// The panel navigation as a drawer on narrow screens (layout.eta: x-data="navigationDrawer").
// Alpine's CSP build parses the markup's expressions itself and takes no statements, arrow
// functions or DOM writes there, so what is more than a value or a call lives here.
// Loaded before Alpine (both deferred, in order): registered when Alpine starts.
(function () {
  'use strict'
  document.addEventListener('alpine:init', function () {
    window.Alpine.data('navigationDrawer', function () {
      return {
        navOpen: false,
        toggleNav: function () {
          this.navOpen = !this.navOpen
          if (!this.navOpen) return
          var sidebar = this.$refs.sidebar
          // Once the drawer is shown, its first link takes the focus.
          this.$nextTick(function () {
            var first = sidebar && sidebar.querySelector('a')
            if (first) first.focus()
          })
        },
        closeNav: function () {
          if (!this.navOpen) return
          this.navOpen = false
          if (this.$refs.navToggle) this.$refs.navToggle.focus()
        }
      }
    })
  }, { once: true })
})()
